/**
 * The Taleweaver mark: a quill drawing a thread. Decorative; the title beside it names it.
 * public/index.html draws the same mark in its app shell; change both together.
 */
export function Logo() {
  return (
    <svg className="logo" viewBox="0 0 64 64" width="36" height="36" aria-hidden="true">
      <circle
        cx="32"
        cy="32"
        r="30"
        fill="var(--color-ink-raised)"
        stroke="var(--color-gold)"
        strokeWidth="2"
      />
      <path
        d="M18 44c9-2 16-8 21-17s9-12 12-14c-2 6-4 11-8 17s-11 12-19 15z"
        fill="var(--color-gold)"
      />
      <path
        d="M15 49c7 0 13-1 19-4"
        stroke="var(--color-parchment)"
        strokeWidth="2.5"
        strokeLinecap="round"
        fill="none"
      />
    </svg>
  );
}
