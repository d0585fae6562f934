import { Box, Group, Text, VisuallyHidden } from '@mantine/core';
import type { DailyCount } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/components/formatters';

interface DailyBarChartProps {
  data: DailyCount[];
  /** Names the chart for screen readers, which get its values as a table. */
  label: string;
  formatValue: (value: number) => string;
}

/** One bar per day, drawn with CSS: a chart library would weigh more than every screen of this page. */
export function DailyBarChart({ data, label, formatValue }: DailyBarChartProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const max = Math.max(0, ...data.map((point) => point.count));
  const first = data[0];
  const last = data[data.length - 1];

  return (
    <Box component="figure" m={0}>
      <Box aria-hidden style={{ display: 'flex', alignItems: 'flex-end', gap: 2, height: 140 }} data-chart>
        {data.map((point) => (
          <Box
            key={point.date}
            title={`${format.day(point.date)}: ${formatValue(point.count)}`}
            style={{
              flex: 1,
              height: max > 0 ? `${(point.count / max) * 100}%` : 0,
              minHeight: point.count > 0 ? 2 : 0,
              background: 'var(--mantine-primary-color-filled)',
              borderRadius: '2px 2px 0 0',
            }}
          />
        ))}
      </Box>
      {first && last && (
        <Group justify="space-between" mt={4} aria-hidden>
          <Text size="xs" c="dimmed">
            {format.day(first.date)}
          </Text>
          <Text size="xs" c="dimmed">
            {format.day(last.date)}
          </Text>
        </Group>
      )}
      <VisuallyHidden>
        <table>
          <caption>{label}</caption>
          <thead>
            <tr>
              <th scope="col">{t('staff.stats.day')}</th>
              <th scope="col">{t('staff.stats.value')}</th>
            </tr>
          </thead>
          <tbody>
            {data.map((point) => (
              <tr key={point.date}>
                <td>{format.day(point.date)}</td>
                <td>{formatValue(point.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </Box>
  );
}
