// The browser's picture client's requests (browserPictureClient.ts), fetched with the flows.
export { fetchImageModelList, requestPicture } from '../llm';
