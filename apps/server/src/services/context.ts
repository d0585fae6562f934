import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/database';
import type { AuthResolver } from '../http/route';
import type { Cache } from '../platform/cache';
import type { PlatformClient } from '../platform/discord';
import type { AuthService } from './authentication/service';
import type { ChangeNotices } from './deployment/change-notices';
import type { DeploymentService } from './deployment/service';
import type { FilesService } from './files/service';
import type { LocalizationService } from './localization/service';
import type { PlanChanges } from './payment/change-plan';
import type { PaymentService } from './payment/service';
import type { PaypalPayments } from './payment/paypal-payments';
import type { StripeEvents } from './payment/stripe-events';
import type { SubscriptionActions } from './payment/subscription-actions';
import type { ServerDataService } from './server/service';
import type { ConfigurationService } from './settings/configuration-service';
import type { PanelService } from './settings/panel-service';
import type { SettingsService } from './settings/service';
import type { WebhookDeliveries } from './settings/webhook-deliveries';
import type { WebhookService } from './settings/webhook-service';
import type { SupportService } from './support/service';
import type { TicketStats } from './support/stats';
import type { InteractionService } from './support/interactions';
import type { TicketClosing } from './support/ticket-closing';
import type { TicketHandling } from './support/ticket-handling';
import type { TicketJobs } from './support/ticket-jobs';
import type { TicketOpening } from './support/ticket-opening';
import type { PlatformEvents } from './support/platform-events';
import type { BotWords } from '../i18n/bot-words';

export interface Services {
  auth: AuthService;
  serverData: ServerDataService;
  settings: SettingsService;
  panels: PanelService;
  /** A server's configuration as one file: its export and its import. */
  configuration: ConfigurationService;
  support: SupportService;
  stats: TicketStats;
  files: FilesService;
  interactions: InteractionService;
  /** Tickets on the platform: opened, handled while open, closed, and closed by the automation. */
  ticketOpening: TicketOpening;
  ticketHandling: TicketHandling;
  ticketClosing: TicketClosing;
  ticketJobs: TicketJobs;
  events: PlatformEvents;
  /** The bot's texts on the platform; corrected `bot` translations are swapped in here. */
  botWords: BotWords;
  payments: PaymentService;
  stripeEvents: StripeEvents;
  subscriptionActions: SubscriptionActions;
  planChanges: PlanChanges;
  paypalPayments: PaypalPayments;
  deployment: DeploymentService;
  /** White-label bot changes, for the bot runners (see deployment/change-notices.ts). */
  whitelabelChanges: ChangeNotices;
  /** Outgoing webhooks (Enterprise): endpoints and deliveries, and the job runner that sends them. */
  webhooks: WebhookService;
  webhookDeliveries: WebhookDeliveries;
  /** Languages and translation files (the bot's texts, the dashboard's parts). */
  localization: LocalizationService;
}

/** Everything a service's routes need, built once per app. */
export interface ServiceContext {
  app: FastifyInstance;
  config: Config;
  database: Database;
  cache: Cache;
  platform: PlatformClient;
  services: Services;
  resolver: AuthResolver;
}
