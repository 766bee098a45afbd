/** Focus is on nothing in particular: the button that had it is gone, or it is on the page. */
export function focusWasLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || !active.isConnected;
}
