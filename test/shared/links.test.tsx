/**
 * @jest-environment jsdom
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { Link, NavLink } from '../../src/shared/links';

function Where() {
  return <output>{useLocation().pathname}</output>;
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <nav>
        <NavLink to="/" end>
          Home
        </NavLink>
        <NavLink to="/leaderboard">Leaderboard</NavLink>
        <Link to="/profile" className="menu-link">
          Profile
        </Link>
      </nav>
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('the app’s links', () => {
  it('point at their page and go there on a click, without leaving the app', async () => {
    renderAt('/');
    const profile = screen.getByRole('link', { name: 'Profile' });
    expect(profile.getAttribute('href')).toBe('/profile');
    expect(profile.className).toBe('menu-link');
    await userEvent.click(profile);
    expect(screen.getByRole('status').textContent).toBe('/profile');
  });

  it('run their own click handler first, which can keep them from navigating', async () => {
    const onClick = jest.fn((event: { preventDefault(): void }) => event.preventDefault());
    render(
      <MemoryRouter initialEntries={['/']}>
        <Link to="/profile" onClick={onClick}>
          Profile
        </Link>
        <Where />
      </MemoryRouter>,
    );
    await userEvent.click(screen.getByRole('link', { name: 'Profile' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status').textContent).toBe('/');
  });

  it.each([
    ['/', 'Home'],
    ['/leaderboard', 'Leaderboard'],
    ['/leaderboard/week', 'Leaderboard'],
    ['/LEADERBOARD', 'Leaderboard'],
  ])('mark the navigation link of %s as the current page', (path, current) => {
    renderAt(path);
    for (const name of ['Home', 'Leaderboard']) {
      const link = screen.getByRole('link', { name });
      const marked = name === current;
      expect(link.classList.contains('active')).toBe(marked);
      expect(link.getAttribute('aria-current')).toBe(marked ? 'page' : null);
    }
  });

  it('mark none at a page outside the navigation', () => {
    renderAt('/leaderboards');
    expect(screen.queryByRole('link', { current: 'page' })).toBeNull();
  });
});
