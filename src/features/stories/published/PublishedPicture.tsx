import { useEffect, useState } from 'react';
import { base64ToBytes } from '../pictures/base64';
import { useGetPublishedPictureDataQuery, type PublishedPicture } from './publishedStoryApi';

/**
 * A picture of a published story under its paragraph, with the scene's words as its alt text:
 * its bytes are read from the backend and shown from a blob: URL (the page's CSP allows images
 * from the site, data: and blob: only), let go when the picture leaves the page. While they
 * come, its place is kept at its size, and named as the picture is.
 */
export function PublishedPictureView({
  storyId,
  picture,
}: {
  storyId: string;
  picture: PublishedPicture;
}) {
  const { data } = useGetPublishedPictureDataQuery({ storyId, turn: picture.turn });
  const url = useBlobUrl(data ?? null, picture.mediaType);
  const { width, height, alt } = picture;
  return (
    <figure className="published-picture">
      {url === null ? (
        <div
          className="published-picture__image published-picture__waiting"
          style={{ aspectRatio: `${width} / ${height}` }}
          role="img"
          aria-label={alt}
        />
      ) : (
        <img
          className="published-picture__image"
          src={url}
          width={width}
          height={height}
          alt={alt}
        />
      )}
    </figure>
  );
}

/**
 * A blob: URL of base64 bytes, made once they are decoded (off the render, as a blob is read)
 * and revoked when they go.
 */
function useBlobUrl(base64: string | null, mediaType: string): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (base64 === null) return undefined;
    let made: string | null = null;
    let gone = false;
    void Promise.resolve(base64).then((text) => {
      const bytes = base64ToBytes(text);
      if (gone || bytes === null) return;
      made = URL.createObjectURL(new Blob([bytes], { type: mediaType }));
      setUrl(made);
    });
    return () => {
      gone = true;
      if (made !== null) URL.revokeObjectURL(made);
      setUrl(null);
    };
  }, [base64, mediaType]);
  return url;
}
