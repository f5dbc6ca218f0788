// /submit: a folder chosen with <input webkitdirectory> is packed here, in the page, into a .tar.gz (ustar
// entries, gzip by the browser's CompressionStream) and put into the form's archive field, so the server
// receives one archive however the bot was chosen. Browsers without folder picking or CompressionStream
// keep the plain archive field only.
(function () {
  const folder = document.getElementById('folder');
  const archive = document.getElementById('archive');
  const status = document.getElementById('folder-status');
  const choice = document.getElementById('folder-choice');
  if (!folder || !archive || !('webkitdirectory' in folder) || typeof CompressionStream !== 'function' || typeof DataTransfer !== 'function') return;
  choice.hidden = false;
  const utf8 = new TextEncoder();

  function field(block, offset, length, text) {
    const bytes = utf8.encode(text);
    if (bytes.length > length) throw new Error('"' + text + '" is too long for a tar header');
    block.set(bytes, offset);
  }
  const octal = (n, width) => n.toString(8).padStart(width - 1, '0');

  // One ustar header: a path over 100 bytes is split at a '/' into prefix (155) and name (100).
  function header(path, size, mode, type) {
    const block = new Uint8Array(512);
    let name = path;
    let prefix = '';
    if (utf8.encode(path).length > 100) {
      const cut = path.lastIndexOf('/', path.length - 2);
      prefix = path.slice(0, cut);
      name = path.slice(cut + 1);
    }
    field(block, 0, 100, name);
    field(block, 100, 8, octal(mode, 8));
    field(block, 108, 8, octal(0, 8));
    field(block, 116, 8, octal(0, 8));
    field(block, 124, 12, octal(size, 12));
    field(block, 136, 12, octal(0, 12));
    block.fill(32, 148, 156);
    field(block, 156, 1, type);
    field(block, 257, 6, 'ustar');
    field(block, 263, 2, '00');
    field(block, 345, 155, prefix);
    let sum = 0;
    for (const b of block) sum += b;
    field(block, 148, 8, octal(sum, 7) + '\0');
    return block;
  }

  async function pack(files) {
    const parts = [];
    const dirs = new Set();
    const sorted = Array.from(files).sort((a, b) => (a.webkitRelativePath < b.webkitRelativePath ? -1 : 1));
    for (const f of sorted) {
      const path = f.webkitRelativePath || f.name;
      const segments = path.split('/');
      for (let i = 1; i < segments.length; i++) {
        const dir = segments.slice(0, i).join('/') + '/';
        if (!dirs.has(dir)) {
          dirs.add(dir);
          parts.push(header(dir, 0, 0o755, '5'));
        }
      }
      parts.push(header(path, f.size, 0o644, '0'));
      parts.push(new Uint8Array(await f.arrayBuffer()));
      if (f.size % 512) parts.push(new Uint8Array(512 - (f.size % 512)));
    }
    parts.push(new Uint8Array(1024));
    const gz = new Blob(parts).stream().pipeThrough(new CompressionStream('gzip'));
    return new Response(gz).blob();
  }

  folder.addEventListener('change', async () => {
    if (!folder.files || folder.files.length === 0) return;
    status.textContent = 'packing ' + folder.files.length + ' files…';
    try {
      const top = (folder.files[0].webkitRelativePath || 'bot').split('/')[0];
      const blob = await pack(folder.files);
      const chosen = new DataTransfer();
      chosen.items.add(new File([blob], top + '.tar.gz', { type: 'application/gzip' }));
      archive.files = chosen.files;
      status.textContent = 'packed ' + folder.files.length + ' files into ' + top + '.tar.gz (' + blob.size + ' bytes): press Submit';
    } catch (e) {
      status.textContent = 'cannot pack this folder: ' + e.message;
    }
  });
})();
