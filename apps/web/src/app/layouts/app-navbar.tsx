import { Avatar } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AVATAR_COLORS } from '@/components/avatar-colors';
import { useAuthStore } from '@/lib/auth-store';
import type { RouteName } from '@/lib/routes';
import { useServerContext } from '@/lib/server-context';
import classes from './app-navbar.module.css';
import { buildMenu, type MenuLink } from './menu-items';
import { showTour } from './tour';

/** The menu of SPEC §2, each item shown only to whom it applies. */
export function AppNavbar({ routeName }: { routeName: RouteName | undefined }) {
  const { t } = useTranslation();
  const context = useServerContext();
  const menu = buildMenu({ serverId: context.serverId, role: context.role, premiumLevel: context.premiumLevel });
  const isActive = (activeOn: readonly RouteName[]) => routeName !== undefined && activeOn.includes(routeName);
  const link = (item: MenuLink) => (
    <li key={item.label}>
      <NavItem to={item.to} active={isActive(item.activeOn)}>
        {t(`menu.${item.label}`)}
      </NavItem>
    </li>
  );
  const serverName = context.entry?.name ?? context.server?.name ?? context.serverId;

  return (
    <div className={classes.navbar}>
      <ul className={classes.list}>{menu.top.map(link)}</ul>
      {menu.server && (
        <>
          <hr className={classes.separator} />
          <ul className={classes.list} aria-label={serverName} data-server-menu={menu.server.serverId}>
            <li>
              <NavItem to={menu.server.home} active={isActive(menu.server.activeOn)} className={classes.server}>
                {/* Decorative: the name follows. Without an icon it shows initials, which must not be read out. */}
                <Avatar
                  aria-hidden
                  src={context.entry?.serverIcon ?? context.server?.iconUrl ?? null}
                  alt=""
                  name={serverName}
                  {...AVATAR_COLORS}
                  size="sm"
                  radius="sm"
                />
                <span className={classes.label}>{serverName}</span>
              </NavItem>
            </li>
            {menu.server.items.map(link)}
          </ul>
        </>
      )}
      <hr className={classes.separator} />
      <ul className={classes.list}>
        {menu.personal.map(link)}
        <li>
          <button type="button" className={classes.item} onClick={showTour}>
            {t('menu.showTour')}
          </button>
        </li>
        <li>
          <LogoutItem />
        </li>
      </ul>
    </div>
  );
}

function NavItem({ to, active, className, children }: { to: string; active: boolean; className?: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className={className ? `${classes.item} ${className}` : classes.item}
      aria-current={active ? 'page' : undefined}
    >
      {children}
    </Link>
  );
}

function LogoutItem() {
  const { t } = useTranslation();
  const logout = useAuthStore((state) => state.logout);
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className={classes.item}
      disabled={busy}
      onClick={() => {
        setBusy(true);
        // Signing out lands on /login through the layout's guard.
        void logout().finally(() => setBusy(false));
      }}
    >
      {t('menu.logout')}
    </button>
  );
}
