// The browser's picture client's calls (browserPictureClient.ts), fetched with the flows.
export { fetchImageModelList, requestPicture } from '../llm';
export { compressInThisBrowser } from '../stories';
