import { useMutation } from '@tanstack/react-query';
import type { ConfigurationDocument } from '@ticket/contracts';
import { getApi } from '@/lib/api';

/** `GET /servers/:serverId/configuration`: the server's whole configuration as one document. */
export const getConfiguration = (serverId: string): Promise<ConfigurationDocument> =>
  getApi().settings.getConfiguration({ params: { serverId } });

/** Hands the document to the browser as a JSON file named after the server and the day. */
function saveAsFile(serverId: string, doc: ConfigurationDocument): void {
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(doc, null, 2)}\n`], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `configuration-${serverId}-${doc.exportedAt.slice(0, 10)}.json`;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers start the download after the click returns: the address must outlive it a little.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Exports the configuration and downloads it: on demand, never cached (it is a snapshot of this moment). */
export const useExportConfiguration = (serverId: string) =>
  useMutation({
    mutationFn: async () => {
      const doc = await getConfiguration(serverId);
      saveAsFile(serverId, doc);
      return doc;
    },
  });
