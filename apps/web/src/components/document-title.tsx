import { useTranslation } from 'react-i18next';

/** React 19 hoists `<title>` into the head, so each screen names its tab. */
export function DocumentTitle({ title }: { title?: string }) {
  const { t } = useTranslation();
  return <title>{title ? `${title} · ${t('app.name')}` : t('app.name')}</title>;
}
