/**
 * Every number of the interface specification's Limits table, and the service's own limits,
 * named once. Both halves import these so the console validates exactly what the service enforces.
 */
export const LIMITS = {
  /** Paged lists: `num` is clamped to this. */
  maxPageSize: 100,
  defaultPageSize: 10,
  /** addUsers: names per request (users + admins together). */
  usersPerAddToGroupRequest: 25,
  /** addUsers: groups a user may belong to. */
  groupsPerUser: 512,
  /** Members from other organizations one group may hold, unless the organization sets otherwise. */
  defaultExternalMembersPerGroup: 100,
  /** canReassignItems / reassignItems: ids per request. */
  itemsPerReassignRequest: 100,
  /** addItem with chunked transfer encoding. */
  chunkedUploadBytes: 50 * 1024 * 1024,
  /** addItem dataUrl: above this, download in byte-range parts. */
  rangeDownloadThresholdBytes: 500 * 1024,
  /** addItem dataUrl: retries for one failed part. */
  downloadPartRetries: 1,
  /** Item description must be less than this many bytes. */
  descriptionBytes: 64 * 1024,
  snippetChars: 2048,
  /** Items and groups: titles, types, tags, URLs (the console counts against these too). */
  itemTitleChars: 256,
  itemTypeChars: 128,
  tagChars: 256,
  tagsPerItem: 128,
  groupTitleChars: 250,
  urlChars: 2048,
  /** Webhooks: name and signing secret. */
  webhookNameChars: 256,
  webhookSecretChars: 256,
  itemIdLength: 32,
  /**
   * Dependency answers (content/items/<id>/dependents | dependencies): the most edges one answer
   * lists (edges are one per (from, to, kind), with a count), and the most reference rows one step
   * of the walk reads; past either the answer says `truncated`. With the 2,000 items an answer may
   * name, this keeps the worst answer under about 1 MB, whatever the items' data repeats. Rows per
   * step: twice the edges an answer may list (more rows only add to the counts of edges already
   * read); 10,000 made a step of the adversarial ring (30 public maps naming each other 2,000
   * times) cost over 50 ms of the database on its own (bench/dependencies.bench.ts).
   */
  dependencyEdgesPerAnswer: 2_000,
  dependencyReferenceRowsPerStep: 4_000,
  serviceProxyDefaultIntervalSeconds: 60,
  thumbnailWidths: [200, 400, 800, 2400] as const,
  /** Tokens. */
  defaultTokenExpirationMinutes: 60,
  maxTokenExpirationMinutes: 20160,
  /**
   * Sign-in throttling (docs/security.md "Sign-in throttling"). Failures of one source on one
   * username before that source waits for that username; the first wait, doubling per further
   * failure up to the longest.
   */
  failedSignInsBeforeLock: 5,
  firstLockSeconds: 60,
  maxLockSeconds: 30 * 60,
  /** Failures of one source across all usernames before that source waits for every username (same backoff). */
  failedSignInsPerSourceBeforeLock: 20,
  /** A count whose last failure is older than this starts again from zero (and its row is removed). */
  signInFailuresForgottenHours: 24,
  /** Failures on one username from all sources after which each of its sign-ins is slowed (never refused). */
  signInSlowAfterFailures: 10,
  /** That slowdown: 100 ms, doubling per further failure, at most this long. */
  signInSlowMaxMs: 2000,
  /** Users. */
  usernameMinChars: 5,
  usernameMaxChars: 128,
  passwordMinChars: 8,
  passwordMaxChars: 256,
  nameMaxChars: 128,
  emailMaxChars: 254,
  userDescriptionChars: 32_000,
  /** Roles. */
  roleNameChars: 128,
  roleDescriptionChars: 250,
  /**
   * File bytes of one multipart request received before its token (rest-js's addItem and
   * addItemPart, and FormData, send the `token` field after the file). They are spooled to a
   * temporary file, never kept in memory, and removed unless the token that follows authorises
   * the caller. The documented multipart upload asks only that parts be at least 5 MB; this lets
   * a part (or a whole file sent in one request) of up to 100 MB come before its token. Larger
   * files need the token first (the X-Esri-Authorization header, the query, or an earlier field).
   */
  fileBytesBeforeToken: 100 * 1024 * 1024,
  /** The same, over the requests of one source address at once: room for one largest part and a half. */
  fileBytesBeforeTokenPerSource: 150 * 1024 * 1024,
  /** The same, over all requests of one process at once: what unknown callers can make it hold on disk. */
  fileBytesBeforeTokenAllRequests: 1024 * 1024 * 1024,
  /** Request bodies (form fields); file uploads have their own limits. */
  formBodyBytes: 8 * 1024 * 1024,
  fieldBytes: 4 * 1024 * 1024,
  /** Any one parameter value, unless its operation declares a larger one (item `text` data). */
  paramChars: 64 * 1024,
  paramNameChars: 256,
  paramsPerRequest: 1000,
  /** Strings, arrays and objects inside one parameter (a JSON body or a parsed JSON value). */
  valuesPerParam: 100_000,
  /** Nesting of one JSON value (a parameter's JSON text or a JSON body's value); deeper ones overflow the stack. */
  jsonDepth: 64,
  /** OAuth 2.0 (docs/oauth.md). Access tokens from oauth2/token live 30 minutes (the portal's documented value). */
  oauthAccessTokenMinutes: 30,
  /** Refresh tokens: `expiration` on oauth2/authorize, in minutes; default two weeks, at most 90 days. */
  defaultRefreshTokenMinutes: 20160,
  maxRefreshTokenMinutes: 129_600,
  /** Authorization codes are exchanged at once by the app; a few minutes is plenty. */
  oauthCodeMinutes: 5,
  /** A sign-in form shown by oauth2/authorize can be submitted for this long (it is signed, not stored). */
  oauthSignInFormMinutes: 30,
  /** oauth2/authorize and oauth2/token: `state`, `redirect_uri` and each registered redirect URI. */
  oauthStateChars: 2048,
  redirectUriChars: 2048,
  redirectUrisPerApp: 25,
  httpReferrersPerApp: 100,
  /**
   * Reading item data for references (the reference index, the console's graph): data larger than
   * this is not read; at most this many references per item, values looked at, and characters of
   * one URL (a longer string is no URL a server answers). docs/security.md "Request-thread work".
   */
  referenceDataBytes: 8 * 1024 * 1024,
  referencesPerItem: 10_000,
  referenceScanSteps: 200_000,
  referenceUrlChars: 8192,
  /**
   * The portal parses item data text up to this many characters for references on the thread that
   * serves requests; longer text is parsed and read on a worker thread (one JSON.parse of 8 MB
   * held every other request for tens of milliseconds). Likewise the longest data an update
   * compares with the previous data to record swapped references in history.
   */
  referenceParseOnThreadBytes: 256 * 1024,
  /**
   * Item resources (addResources, updateResources; docs/rest-operations.md "Item resources"): the
   * documented limits of ArcGIS Online — at most 1,000 files per item, each at most 50 MB, 10 GB
   * altogether per item. A zip unpacked with archive=true is held to the same (and to the zip
   * guards' ratio): its files count one by one.
   */
  resourceBytes: 50 * 1024 * 1024,
  resourcesPerItem: 1000,
  resourcesBytesPerItem: 10 * 1024 * 1024 * 1024,
  /** A resource's path (prefix and file name), in characters. */
  resourcePathChars: 512,
} as const;
