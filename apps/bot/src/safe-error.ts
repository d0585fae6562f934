/** An error without what could carry a secret (the platform's errors hold the request URL, here with the interaction token). */
export function safeError(error: unknown): { name: string; message: string; status?: number; code?: unknown } {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const e = error as Error & { status?: number; code?: unknown };
  return { name: e.name, message: e.message, ...(e.status !== undefined && { status: e.status }), ...(e.code !== undefined && { code: e.code }) };
}
