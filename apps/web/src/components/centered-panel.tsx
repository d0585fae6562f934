import { Center, Paper } from '@mantine/core';
import type { ReactNode } from 'react';

/** The single-card page of the signed-out screens, the only landmark on them being this `main`. */
export function CenteredPanel({ children }: { children: ReactNode }) {
  return (
    <Center component="main" mih="100dvh" p="md">
      <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={440}>
        {children}
      </Paper>
    </Center>
  );
}
