import { BILLING_INTERVAL_MONTHS, type Receipt } from '@ticket/contracts';
import PDFDocument from 'pdfkit';

const PLAN_NAMES = { premium: 'Premium', enterprise: 'Enterprise' } as const;
const PROVIDERS = { stripe: 'Card', paypal: 'PayPal' } as const;

const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency}`;
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '–');

/** A receipt as a one-page PDF: what was paid (or refunded), for which plan, period and server, and the carbon-removal share. */
export function renderReceiptPdf(receipt: Receipt, buyer: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: `Receipt ${receipt.number}`, Author: 'Ticket dashboard' } });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    doc.fontSize(20).text(receipt.kind === 'refund' ? 'Refund receipt' : 'Receipt', { align: 'left' });
    doc.moveDown(0.5).fontSize(10).fillColor('#555').text(`Number ${receipt.number} · ${day(receipt.createdAt)}`);
    doc.moveDown(1.5).fillColor('#000').fontSize(12);
    const months = BILLING_INTERVAL_MONTHS[receipt.planInterval];
    const rows: [string, string][] = [
      ['Buyer', buyer],
      ['Server', receipt.server ? `${receipt.server.name} (${receipt.server.serverId})` : '–'],
      ['Plan', `${PLAN_NAMES[receipt.planType]}, billed every ${months === 1 ? 'month' : `${months} months`}`],
      ['Period', `${day(receipt.periodStart)} – ${day(receipt.periodEnd)}`],
      ['Payment method', PROVIDERS[receipt.provider]],
      [receipt.kind === 'refund' ? 'Amount refunded' : 'Amount paid', money(receipt.amountCents, receipt.currency)],
      ['Of which to carbon removal (2 %)', money(receipt.carbonRemovalCents, receipt.currency)],
    ];
    for (const [label, value] of rows) {
      const y = doc.y;
      doc.font('Helvetica-Bold').text(label, 56, y, { width: 200 });
      doc.font('Helvetica').text(value, 260, y, { width: 280 });
      doc.moveDown(0.6);
    }
    doc.end();
  });
}
