import type { AnchorHTMLAttributes } from 'react';
import { useHref, useLinkClickHandler, useLocation, useResolvedPath } from 'react-router-dom';

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string };

/**
 * A link within the app, as React Router's own Link makes it (its href, and a plain click
 * navigates without loading the page), without the route prefetching, view transitions and
 * server-rendering support of that Link, which the app never asks for and a whole game's
 * JavaScript carried (3.3 KB over the wire, with scripts/pureReactRouter.ts).
 */
export function Link({ to, onClick, target, ...props }: LinkProps) {
  const href = useHref(to);
  const navigate = useLinkClickHandler<HTMLAnchorElement>(to, { target });
  return (
    <a
      {...props}
      href={href}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) navigate(event);
      }}
    />
  );
}

/**
 * A navigation link marked as the current page (class "active", aria-current="page") while the
 * location is at its path or, unless `end`, below it; React Router's NavLink's rule, case
 * insensitive as its is by default.
 */
export function NavLink({
  to,
  end = false,
  ...props
}: Omit<LinkProps, 'className'> & { end?: boolean }) {
  const at = useLocation().pathname.toLowerCase();
  const path = useResolvedPath(to).pathname.toLowerCase();
  const below = path.endsWith('/') ? path : `${path}/`;
  const active = at === path || (!end && at.startsWith(below));
  return (
    <Link
      {...props}
      to={to}
      className={active ? 'active' : undefined}
      aria-current={active ? 'page' : undefined}
    />
  );
}
