// Mantine's Menu (with Popover, Floating UI, Portal and transitions), alone in a chunk that
// components/lazy-menu.tsx loads when a menu is about to be used.
export { Menu } from '@mantine/core';
