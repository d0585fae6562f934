import type { Menu as MantineMenu, MenuProps } from '@mantine/core';
import { type FocusEvent, type ReactElement, type ReactNode, type Ref, useCallback, useRef, useState } from 'react';

export type MenuComponent = typeof MantineMenu;

/** What the trigger must spread on its button (a component that forwards its ref, such as Mantine's Button). */
export interface MenuTriggerProps {
  ref?: Ref<HTMLButtonElement>;
  onPointerEnter?: () => void;
  onFocus?: (event: FocusEvent<HTMLButtonElement>) => void;
  onClick?: () => void;
  'aria-haspopup'?: 'menu';
  'aria-expanded'?: boolean;
}

let loaded: MenuComponent | undefined;
let loading: Promise<MenuComponent> | undefined;

const loadMenu = (): Promise<MenuComponent> => {
  loading ??= import('./menu-module').then((module) => {
    loaded = module.Menu;
    return module.Menu;
  });
  return loading;
};

interface LazyMenuProps extends Omit<MenuProps, 'children' | 'defaultOpened'> {
  target: (props: MenuTriggerProps) => ReactElement;
  /** The dropdown's items, built with the loaded `Menu` (Menu.Item, Menu.Label…). */
  children: (Menu: MenuComponent) => ReactNode;
}

/**
 * A Mantine Menu whose code is fetched when the user is about to use it (pointer over or focus on
 * the trigger) rather than with the first screen: the header's menus would otherwise bring
 * Popover and Floating UI into every first load. Until then the trigger is a plain button that
 * opens the menu once loaded; the button that replaces it keeps the focus.
 */
export function LazyMenu({ target, children, ...menuProps }: LazyMenuProps) {
  const [Menu, setMenu] = useState<MenuComponent | undefined>(() => loaded);
  const [openOnLoad, setOpenOnLoad] = useState(false);
  const placeholder = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);

  const load = useCallback((open: boolean) => {
    if (open) setOpenOnLoad(true);
    void loadMenu().then((component) => {
      refocus.current = document.activeElement === placeholder.current;
      setMenu(() => component);
    });
  }, []);

  const focusReplacement = useCallback((element: HTMLButtonElement | null) => {
    if (element && refocus.current) {
      refocus.current = false;
      element.focus();
    }
  }, []);

  if (!Menu) {
    return target({
      ref: placeholder,
      onPointerEnter: () => load(false),
      onFocus: () => load(false),
      onClick: () => load(true),
      'aria-haspopup': 'menu',
      'aria-expanded': false,
    });
  }
  return (
    // The header's menus hang from a fixed bar: their trigger never scrolls out of sight. Without
    // the focus placeholder (a bare focusable div) the menu holds menu items only.
    <Menu hideDetached={false} withInitialFocusPlaceholder={false} {...menuProps} defaultOpened={openOnLoad}>
      <Menu.Target>{target({ ref: focusReplacement })}</Menu.Target>
      <Menu.Dropdown>{children(Menu)}</Menu.Dropdown>
    </Menu>
  );
}
