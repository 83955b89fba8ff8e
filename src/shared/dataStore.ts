/**
 * The content of a Data Store item (the `text` of addItem/update when the type is "Data Store"): the
 * JSON of a data item as ArcGIS Server registers it (Server Administrator API, "Data item"). Three
 * shapes, told apart by `type`:
 * - `egdb`: an enterprise geodatabase, `info.connectionString` the database's connection string;
 * - `folder`: a file share, `info.path` the folder;
 * - any other type: a cloud store (the spec's shape), `info.connectionString` an object of
 *   credentials (or its JSON text), `info.objectStore` the bucket and folder, and a `provider`.
 * The portal checks the shape; the console checks the same schema as the member types, and offers
 * the templates below to start from.
 */
import { z } from 'zod';

/** How the server and clients reach the data (Data item JSON: `dataStoreConnectionType`). */
const connectionType = z.enum(['shared', 'replicated', 'serverOnly'], { message: "must be 'shared', 'replicated' or 'serverOnly'" });

const enterpriseGeodatabase = z.object({
  type: z.literal('egdb'),
  path: z.string().min(1, 'is required (for example /enterpriseDatabases/<name>)'),
  info: z.object({
    connectionString: z
      .string({ message: 'must be the database connection string (text such as SERVER=…;DATABASE=…;USER=…)' })
      .min(1, 'must be the database connection string (text such as SERVER=…;DATABASE=…;USER=…)'),
    clientConnectionString: z.string().optional(),
    dataStoreConnectionType: connectionType.optional(),
    isManaged: z.boolean().optional(),
  }),
  provider: z.string().optional(),
});

const fileShare = z.object({
  type: z.literal('folder'),
  path: z.string().min(1, 'is required (for example /fileShares/<name>)'),
  clientPath: z.string().optional(),
  info: z.object({
    path: z.string({ message: 'must be the path of the shared folder' }).min(1, 'must be the path of the shared folder'),
    dataStoreConnectionType: connectionType.optional(),
    isManaged: z.boolean().optional(),
  }),
  provider: z.string().optional(),
});

const cloudStoreCredentials = z
  .object({
    accessKeyId: z.string(),
    secretAccessKey: z.string(),
    region: z.string(),
    defaultEndpointProtocol: z.string(),
    credentialType: z.string(),
  })
  .partial();

const cloudStore = z.object({
  type: z.string().min(1, "is required ('egdb', 'folder', or the cloud store's kind)"),
  info: z.object({
    isManaged: z.boolean(),
    connectionString: z.union([
      cloudStoreCredentials,
      // Some clients send the connection string as JSON text.
      z.string().transform((s, ctx) => {
        try {
          const v: unknown = JSON.parse(s);
          if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
        } catch {
          /* reported below */
        }
        ctx.addIssue({ code: 'custom', message: "must be the cloud store's credentials: an object (or its JSON text)" });
        return z.NEVER;
      }),
    ]),
    objectStore: z.string(),
  }),
  path: z.string(),
  provider: z.string(),
});

export type DataStoreKind = 'egdb' | 'folder' | 'cloudStore';

export function dataStoreKind(json: unknown): DataStoreKind {
  const type = json && typeof json === 'object' ? (json as { type?: unknown }).type : undefined;
  return type === 'egdb' ? 'egdb' : type === 'folder' ? 'folder' : 'cloudStore';
}

/** The issues of a Data Store item's JSON, each as `'text.<path>' <message>`; empty when it is valid. */
export function dataStoreProblems(json: unknown): string[] {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return ["'text' must be a JSON object (type, path, info)"];
  const kind = dataStoreKind(json);
  const schema = kind === 'egdb' ? enterpriseGeodatabase : kind === 'folder' ? fileShare : cloudStore;
  const r = schema.safeParse(json);
  return r.success ? [] : r.error.issues.map((i) => `'text${i.path.map((p) => `.${String(p)}`).join('')}' ${i.message}`);
}

/** Starting points for each shape, as the console offers them (placeholders in angle brackets). */
export const DATA_STORE_TEMPLATES: Record<DataStoreKind, { label: string; json: object }> = {
  egdb: {
    label: 'Enterprise geodatabase',
    json: {
      type: 'egdb',
      path: '/enterpriseDatabases/<name>',
      info: {
        dataStoreConnectionType: 'shared',
        isManaged: false,
        connectionString: 'SERVER=<host>;INSTANCE=sde:postgresql:<host>;DBCLIENT=postgresql;DATABASE=<database>;USER=<user>;AUTHENTICATION_MODE=DBMS',
      },
    },
  },
  folder: {
    label: 'Folder (file share)',
    json: { type: 'folder', path: '/fileShares/<name>', info: { dataStoreConnectionType: 'shared', path: '<\\\\server\\share\\folder>' } },
  },
  cloudStore: {
    label: 'Cloud store',
    json: {
      type: 'cloudStore',
      path: '/cloudStores/<name>',
      provider: 'amazon',
      info: {
        isManaged: false,
        objectStore: '<bucket>/<folder>',
        connectionString: {
          accessKeyId: '<key id>',
          secretAccessKey: '<secret>',
          region: '<region>',
          defaultEndpointProtocol: 'https',
          credentialType: 'accesskey',
        },
      },
    },
  },
};
