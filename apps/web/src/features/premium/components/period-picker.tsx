import { SegmentedControl } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { BillingInterval, PriceTable } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/components/formatters';
import { BILLING_INTERVALS, savingOf } from '../prices';

/** Monthly, quarterly, every 6 months, yearly: each with what it saves per month. */
export function PeriodPicker({
  value,
  onChange,
  prices,
  label,
}: {
  value: BillingInterval;
  onChange: (interval: BillingInterval) => void;
  prices: PriceTable | undefined;
  label: string;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  // Four labels with their savings do not fit side by side on a phone.
  const narrow = useMediaQuery('(max-width: 40em)');
  return (
    <SegmentedControl
      aria-label={label}
      value={value}
      onChange={(next) => onChange(next as BillingInterval)}
      fullWidth
      orientation={narrow ? 'vertical' : 'horizontal'}
      data={BILLING_INTERVALS.map((interval) => {
        const saving = savingOf(prices, interval);
        return {
          value: interval,
          label: saving > 0 ? `${t(`premium.intervals.${interval}`)} · ${t('premium.save', { percent: format.percent(saving / 100) })}` : t(`premium.intervals.${interval}`),
        };
      })}
    />
  );
}
