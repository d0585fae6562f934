import { SimpleGrid, type SimpleGridProps, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** Label–value pairs as a description list, in columns where there is room. */
export function Facts({ cols = { base: 1, xs: 2, md: 3 }, children }: { cols?: SimpleGridProps['cols']; children: ReactNode }) {
  return (
    <SimpleGrid component="dl" cols={cols} m={0}>
      {children}
    </SimpleGrid>
  );
}

export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" component="dt">
        {label}
      </Text>
      <Text size="sm" component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}
