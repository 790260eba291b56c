/**
 * The floor for an Ink app's start-up: a bare Ink hello-world, built by the benchmark with
 * esbuild WITHOUT bundling its packages (Ink and React resolve from node_modules the normal
 * way), run with plain node. It stays up until killed, as a live view would.
 */
import { Text, render } from 'ink';

render(<Text>hello from a bare Ink app</Text>, { patchConsole: false });
setInterval(() => {}, 60_000);
