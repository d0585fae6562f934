import { Alert, Button } from '@mantine/core';
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

function UnexpectedError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" role="alert" title={t('settings.errors.title')}>
      {t('errors.unexpected')}
      <Button display="block" mt="sm" variant="light" color="red" size="xs" onClick={onRetry}>
        {t('common.tryAgain')}
      </Button>
    </Alert>
  );
}

/**
 * A state the settings screens cannot be in (a subject missing a group the contracts promise,
 * say) breaks only the editor, with SPEC §8's words for it, not the whole page.
 */
export class UnexpectedBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    if (this.state.failed) return <UnexpectedError onRetry={() => this.setState({ failed: false })} />;
    return this.props.children;
  }
}
