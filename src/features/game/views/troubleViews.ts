// The views of the model's troubles (troubles.tsx), downloaded with their words.
export { ModelReplacedNotice } from './ModelReplacedNotice';
export { WaitMessage } from './WaitMessage';
