import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** Dates, numbers, sizes and durations in the UI language, the way Intl writes them there. */
export function useFormatters() {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  return useMemo(() => {
    const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
    const shortDate = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });
    const number = new Intl.NumberFormat(locale);
    const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
    const unit = (value: number, name: string, digits = 1, display: 'short' | 'narrow' = 'short') =>
      new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: display, maximumFractionDigits: digits }).format(
        value,
      );
    return {
      dateTime: (iso: string) => dateTime.format(new Date(iso)),
      date: (iso: string) => date.format(new Date(iso)),
      /** A calendar day (YYYY-MM-DD), which names the same day everywhere. */
      day: (isoDate: string) => shortDate.format(new Date(`${isoDate}T00:00:00Z`)),
      number: (value: number) => number.format(value),
      /** A share (0.02) as the language writes a percentage ("2%", "2 %"). */
      percent: (share: number) => percent.format(share),
      /** Binary units (1 GB = 1024³ bytes), as the plans count storage. */
      bytes: (value: number) => {
        let size = value;
        let index = 0;
        while (size >= 1024 && index < UNITS.length - 1) {
          size /= 1024;
          index += 1;
        }
        // Bytes read "12B" rather than "12 byte", like the "kB", "MB" and "GB" beside them.
        return index === 0 ? unit(size, 'byte', 0, 'narrow') : unit(size, UNITS[index] as string);
      },
      duration: (seconds: number) => {
        if (seconds < 60) return unit(Math.round(seconds), 'second', 0);
        if (seconds < 3600) return unit(seconds / 60, 'minute');
        if (seconds < 86_400) return unit(seconds / 3600, 'hour');
        return unit(seconds / 86_400, 'day');
      },
      /** Whole cents as money; nothing at all reads "$0" rather than "$0.00". */
      currency: (cents: number, currency: string) => {
        const digits = cents === 0 ? 0 : 2;
        return new Intl.NumberFormat(locale, {
          style: 'currency',
          currency,
          minimumFractionDigits: digits,
          maximumFractionDigits: digits,
        }).format(cents / 100);
      },
    };
  }, [locale]);
}
