import { ApiClient } from '@localazy/api-client';

export interface LocalazyConfig {
  /** LOCALAZY_TOKEN: a project token of the Localazy project translations go to. */
  token: string;
  /** LOCALAZY_API_URL; Localazy's own API when null. */
  apiUrl: string | null;
}

/** Pushes a file's source texts to the Localazy project, through Localazy's own client. */
export type LocalazyPush = (file: { fileName: string; sourceLanguage: string; texts: Record<string, string> }) => Promise<void>;

export function localazyPush(config: LocalazyConfig): LocalazyPush {
  const client = new ApiClient({ authToken: config.token, ...(config.apiUrl ? { apiUrl: config.apiUrl } : {}) });
  return async ({ fileName, sourceLanguage, texts }) => {
    // A project token reaches exactly one project.
    const project = await client.projects.first();
    await client.import.json({
      project,
      json: { [sourceLanguage]: texts },
      fileOptions: { name: `${fileName}.json` },
      // Keys are dot paths already: Localazy keeps them as they are rather than nesting them.
      contentOptions: { type: 'json' },
      // The texts here are the truth: a key left out of this file is no longer used.
      i18nOptions: { forceSource: true, deprecate: 'file' },
    });
  };
}
