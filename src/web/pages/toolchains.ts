import type { Toolchain } from '../submission-services.ts';
import { h } from '../html.ts';
import { page } from '../layout.ts';

/** The compilers and runtimes installed on this server: what a submitted bot's build and run may use. */
export function toolchainsPage(list: readonly Toolchain[]): string {
  const body = h`<h1>Toolchains</h1>
<p>A bot's <code>build</code> and <code>run</code> commands may use what is installed here, inside the sandbox, without network.</p>
${
  list.length
    ? h`<table id="toolchains"><thead><tr><th>name</th><th>version</th></tr></thead><tbody>${list.map((t) => h`<tr><td>${t.name}</td><td>${t.version}</td></tr>`)}</tbody></table>`
    : h`<p class="note" id="no-toolchains">This server lists no compilers or runtimes.</p>`
}`;
  return page({ title: 'Toolchains', body });
}
