// The browser's picture client (browserPictureClient.ts), fetched with the pictures' flows.
export { fetchImageModelList, requestPicture } from '../llm';
export { compressInBrowser } from '../stories';
