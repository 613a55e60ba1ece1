/**
 * The mockrouter dashboard (docs/admin-api.md, "Dashboard"), served by the standalone server at `/__mock/ui` from `dist/ui/`
 * (bundled by scripts/bundle-ui.mjs). Preact, no other run-time dependency; everything it shows comes from the
 * admin API of the same origin.
 */
import { render } from 'preact';
import '../styles.css';
import { App } from './app.js';
import { Feed } from './feed.js';

render(<App feed={new Feed()} />, document.getElementById('app')!);
