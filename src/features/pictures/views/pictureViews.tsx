// The pictures' views, downloaded once there is something to show (pictureSlots.tsx).
export { IllustrateToggle } from './IllustrateToggle';
export { PictureSlot } from './PictureSlot';
