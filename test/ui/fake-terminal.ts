/** Stand-ins for a TTY's stdout and stdin, for runLiveMonitor tests: what was written, keys typed. */
import { EventEmitter } from 'node:events';

export class FakeOut extends EventEmitter {
  isTTY = true;
  columns = 100;
  rows = 30;
  chunks: string[] = [];
  write = (chunk: string) => {
    this.chunks.push(String(chunk));
    return true;
  };
  get text() {
    return this.chunks.join('');
  }
}

export class FakeIn extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  send(data: string) {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  }
  read = () => {
    const d = this.data;
    this.data = null;
    return d;
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}
