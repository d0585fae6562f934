import { describe, expect, it } from 'vitest';
import { isRtlLanguage, LanguageCode, pickUiLanguage, UI_LANGUAGES, UiLanguageCode } from './localization';

describe('UI languages', () => {
  it('lists the 39 languages of SPEC §9 in order, each with a native name', () => {
    expect(UI_LANGUAGES.map((l) => l.code).join(' ')).toBe(
      'ar bg ca cs da de el en es et fa fi fr he hi ht hu id is it ja ko lt lv ms nl no pl pt ro ru sk sl sv th tr uk ur vi',
    );
    expect(UiLanguageCode.options).toHaveLength(39);
    for (const l of UI_LANGUAGES) expect(l.name.length).toBeGreaterThan(1);
  });

  it('marks exactly ar, fa, he and ur right-to-left', () => {
    expect(UI_LANGUAGES.filter((l) => l.rtl).map((l) => l.code)).toEqual(['ar', 'fa', 'he', 'ur']);
    expect(isRtlLanguage('he')).toBe(true);
    expect(isRtlLanguage('de')).toBe(false);
  });

  it('uses a stored locale only if supported, otherwise English', () => {
    expect(pickUiLanguage('de')).toBe('de');
    expect(pickUiLanguage('xx')).toBe('en');
    expect(pickUiLanguage(null)).toBe('en');
  });

  it('accepts language codes with regions and scripts', () => {
    for (const code of ['de', 'pt-BR', 'zh-Hant', 'fil']) expect(LanguageCode.safeParse(code).success, code).toBe(true);
    for (const code of ['', 'DE', 'english', 'pt_BR']) expect(LanguageCode.safeParse(code).success, code).toBe(false);
  });
});
