/** A service webhook in words: what sends it, the kind of service it watches, and its schedule. */
import type { ServiceWebhookRecord } from '../../api/index.ts';
import { capitalize, formatDateTime } from '../../lib/format.ts';

/** The words a service webhook's trigger stands for (`*` is every one). */
const CHANGE_TYPE_WORDS: Record<string, string> = {
  '*': 'Every change',
  FeaturesCreated: 'Features created',
  FeaturesUpdated: 'Features updated',
  FeaturesDeleted: 'Features deleted',
  FeaturesEdited: 'Features edited (any edit)',
  AttachmentsCreated: 'Attachments created',
  AttachmentsUpdated: 'Attachments updated',
  AttachmentsDeleted: 'Attachments deleted',
  LayerSchemaChanged: 'Layer schema changed',
  LayerDefinitionChanged: 'Layer definition changed',
  FeatureServiceDefinitionChanged: 'Service definition changed',
};

/** A trigger in words; a geoprocessing webhook's only trigger is the end of a job. */
export function describeChangeTypes(w: Pick<ServiceWebhookRecord, 'changeTypes' | 'serviceType'>): string[] {
  if (w.serviceType === 'GPServer') return ['A job succeeds, is canceled or fails'];
  if (!w.changeTypes.length || w.changeTypes.includes('*')) return ['Every change to the service'];
  return w.changeTypes.map((c) => CHANGE_TYPE_WORDS[c] ?? c);
}

export const SERVICE_TYPE_WORDS: Record<string, string> = { FeatureServer: 'feature service', GPServer: 'geoprocessing service' };

const FREQUENCY_WORDS: Record<string, [string, string]> = {
  second: ['second', 'seconds'],
  minute: ['minute', 'minutes'],
  hour: ['hour', 'hours'],
  day: ['day', 'days'],
  week: ['week', 'weeks'],
  month: ['month', 'months'],
};

export function describeSchedule(s: ServiceWebhookRecord['scheduleInfo']): string {
  if (!('recurrenceInfo' in s)) return 'None: it is sent as each change or job happens';
  const { frequency, interval } = s.recurrenceInfo;
  const [one, many] = FREQUENCY_WORDS[frequency] ?? [frequency, frequency];
  const every = interval === 1 ? `every ${one}` : `every ${interval} ${many}`;
  return `${capitalize(every)} from ${formatDateTime(s.startAt)}${s.state === 'disabled' ? ' (schedule paused)' : ''}`;
}
