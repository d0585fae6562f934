/**
 * Initials in the shell's avatars: white on the primary colour, which passes 4.5:1 in both colour
 * schemes (the name-derived colours of `color="initials"` do not).
 */
export const AVATAR_COLORS = { color: 'indigo', variant: 'filled' } as const;
