/**
 * The states and kinds the server's enums carry (`model/src/states.rs`), as the OpenAPI document
 * lists them: unions, so a misspelt status is a type error rather than a silent mismatch.
 */
import type { components } from '@/lib/api-schema';

type Schemas = components['schemas'];

export type TaskStatus = Schemas['TaskStatus'];
export type OfferStatus = Schemas['OfferStatus'];
export type PaymentStatus = Schemas['PaymentStatus'];
export type DisputeStatus = Schemas['DisputeStatus'];
export type CancellationStatus = Schemas['CancellationStatus'];
export type NotificationKind = Schemas['NotificationKind'];
export type PriceIncreaseStatus = Schemas['PriceIncreaseStatus'];
export type RescheduleStatus = Schemas['RescheduleStatus'];
export type ProviderCallStatus = Schemas['ProviderCallStatus'];
export type PaymentPurpose = Schemas['PaymentPurpose'];
