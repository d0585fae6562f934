import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '@/app/providers';
import { i18n, LANGUAGES, localeLoaders } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query-client';
import { LanguagePicker } from './language-picker';

const renderPicker = () =>
  render(
    <AppProviders queryClient={createQueryClient()}>
      <LanguagePicker />
    </AppProviders>,
  );

const openMenu = async (name = 'Language: English') => {
  await userEvent.click(screen.getByRole('button', { name }));
  return screen.findByRole('menu');
};

describe('language picker (SPEC §9)', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
    i18n.removeResourceBundle('ar', 'translation');
  });

  it('lists all 39 languages by their own names, marking the current one', async () => {
    renderPicker();
    const menu = await openMenu();
    const items = await within(menu).findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(LANGUAGES.map((language) => language.name));
    expect(items).toHaveLength(39);
    expect(within(menu).getByRole('menuitem', { name: 'Deutsch' }).getAttribute('lang')).toBe('de');
    expect(within(menu).getByRole('menuitem', { name: 'English' }).getAttribute('aria-current')).toBe('true');
  });

  it('switches <html lang> and dir to Arabic, right to left, remembers it, and back to English', async () => {
    // The Arabic file is the translators' to write; its loading is not what this test is about.
    i18n.addResourceBundle('ar', 'translation', { language: { label: 'اللغة' } });
    renderPicker();
    await userEvent.click(await within(await openMenu()).findByRole('menuitem', { name: 'العربية' }));
    await waitFor(() => expect(document.documentElement.lang).toBe('ar'));
    expect(document.documentElement.dir).toBe('rtl');
    expect(localStorage.getItem('locale')).toBe('ar');

    await userEvent.click(await within(await openMenu('اللغة: العربية')).findByRole('menuitem', { name: 'English' }));
    await waitFor(() => expect(document.documentElement.lang).toBe('en'));
    expect(document.documentElement.dir).toBe('ltr');
    expect(localStorage.getItem('locale')).toBe('en');
  });

  it("keeps the current language and says 'Failed to load language settings' when a language's file cannot be loaded", async () => {
    const load = localeLoaders.get('de');
    localeLoaders.set('de', () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    try {
      renderPicker();
      await userEvent.click(await within(await openMenu()).findByRole('menuitem', { name: 'Deutsch' }));
      expect(await screen.findByText('Failed to load language settings', undefined, { timeout: 3000 })).toBeTruthy();
    } finally {
      if (load) localeLoaders.set('de', load);
    }
    expect(document.documentElement.lang).toBe('en');
    expect(i18n.language).toBe('en');
    expect(localStorage.getItem('locale')).toBeNull();
  });

  it("keeps the current language and says 'Failed to update language. Please try again.' when switching fails", async () => {
    i18n.addResourceBundle('ar', 'translation', { language: { label: 'اللغة' } });
    const changeLanguage = vi.spyOn(i18n, 'changeLanguage').mockRejectedValueOnce(new Error('no'));
    try {
      renderPicker();
      await userEvent.click(await within(await openMenu()).findByRole('menuitem', { name: 'العربية' }));
      expect(await screen.findByText('Failed to update language. Please try again.', undefined, { timeout: 3000 })).toBeTruthy();
    } finally {
      changeLanguage.mockRestore();
    }
    expect(i18n.language).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(localStorage.getItem('locale')).toBeNull();
  });
});
