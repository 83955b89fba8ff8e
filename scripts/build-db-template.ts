/**
 * Build the embedded database's template (dist/db-template): a fresh PGlite database with every
 * migration applied, as a data directory to copy and a tarball to load, with a manifest of the
 * migrations it holds. `npm start` builds it when stale (scripts/build-if-stale.ts); see
 * src/server/store/template.ts for how the service uses it.
 */
import { buildTemplate } from '../src/server/store/buildTemplate.ts';
import { DEFAULT_TEMPLATE_DIR } from '../src/server/store/template.ts';

const started = performance.now();
const dir = process.argv[2] ?? DEFAULT_TEMPLATE_DIR;
buildTemplate(dir).then(
  (manifest) => console.log(`Template with ${manifest.migrations.length} migrations in ${dir} (${Math.round(performance.now() - started)} ms)`),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
