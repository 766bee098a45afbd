// The pictures' views, downloaded with the first picture or choice to show (pictureSlots.tsx).
export { IllustrateToggle } from './IllustrateToggle';
export { StoryPicture } from './StoryPicture';
