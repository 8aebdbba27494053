/**
 * Runs after the Module Federation share scope is ready (index.ts imports this lazily), so React
 * and the @tiffin libraries below are the shared singletons every remote will also use.
 */
import type { MfeId } from '@tiffin/contract';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import type { RemoteLoader } from './federation/RemoteBoundary';
import { remoteRegistry } from './federation/runtime';
import { watchFirstPaint } from './first-paint';

const loader: RemoteLoader = (mfe: MfeId, expose, options) => remoteRegistry.load(mfe, expose, options);

watchFirstPaint();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(<App loader={loader} />);
