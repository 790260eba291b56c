import { EventEmitter } from 'node:events';
import { Box, Text, render } from 'ink';
import { describe, expect, it } from 'vitest';
import { LineDiffWriter } from '../../../src/ui/terminal/line-diff-writer.js';

class FakeTerminal extends EventEmitter {
  isTTY = true;
  columns = 60;
  rows = 20;
  chunks: string[] = [];
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    return true;
  }
  take(): string {
    const s = this.chunks.join('');
    this.chunks = [];
    return s;
  }
}

function View({ offset, age }: { offset: number; age: number }) {
  return (
    <Box flexDirection="column" width={50}>
      <Text bold>synctop · updated {age}s ago</Text>
      {Array.from({ length: 12 }, (_, i) => (
        <Text key={i} color={i % 2 ? 'green' : 'yellow'}>
          source {i} offset {i === 5 ? offset : i * 10}ns
        </Text>
      ))}
    </Box>
  );
}

const flushAll = () => new Promise<void>((r) => setTimeout(r, 50));

describe('Ink 6.8 rendering into the LineDiffWriter', () => {
  it('an identical rerender writes nothing; one changed value rewrites one row', async () => {
    const term = new FakeTerminal();
    const writer = new LineDiffWriter(term);
    const ink = render(<View offset={1} age={0} />, { stdout: writer as unknown as NodeJS.WriteStream, patchConsole: false, maxFps: 1000 });
    await flushAll();
    expect(writer.screenText().split('\n')).toHaveLength(13);
    expect(writer.screenText()).toContain('source 5 offset 1ns');
    term.take();

    ink.rerender(<View offset={1} age={0} />);
    await flushAll();
    expect(term.take()).toBe('');

    const before = writer.stats.bytesIn;
    ink.rerender(<View offset={2} age={0} />);
    await flushAll();
    const out = term.take();
    expect(writer.stats.bytesIn - before).toBeGreaterThan(400); // Ink rewrote the whole frame
    // Row 7, column 17: the one cell that changed (in its color, when chalk has colors here).
    expect(out).toMatch(/^\x1b\[7;17H(\x1b\[32m)?2$/);
    expect(writer.screenText().split('\n')[6]).toBe('source 5 offset 2ns');
    expect(writer.stats.fallbacks).toBe(0);
    ink.unmount();
  });
});
