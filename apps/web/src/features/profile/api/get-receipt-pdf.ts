import { getApi } from '@/lib/api';

/** One of the user's receipts as a PDF, saved by the browser under the receipt's number. */
export async function downloadReceiptPdf(number: number): Promise<void> {
  const pdf = await getApi().payment.getReceiptPdf({ params: { number: String(number) } });
  const url = URL.createObjectURL(pdf);
  const link = document.createElement('a');
  link.href = url;
  link.download = `receipt-${number}.pdf`;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
