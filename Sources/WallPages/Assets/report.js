for (const section of document.querySelectorAll('section.fixture')) {
  const figures = [...section.querySelectorAll('.sheets figure')];
  let view = 'all', zoom = 0;
  function show() {
    for (const f of figures) f.hidden = view !== 'all' && f.dataset.view !== view;
    const visible = figures.filter(f => !f.hidden).length;
    const box = section.querySelector('.sheets').clientWidth - 8 * visible;
    for (const f of figures) {
      const img = f.querySelector('img');
      img.style.width = (zoom ? img.naturalWidth * zoom : Math.min(img.naturalWidth, box / visible)) + 'px';
      img.style.height = 'auto';
    }
    for (const b of section.querySelectorAll('button[data-view]')) b.setAttribute('aria-pressed', b.dataset.view === view);
    for (const b of section.querySelectorAll('button[data-zoom]')) b.setAttribute('aria-pressed', Number(b.dataset.zoom) === zoom);
  }
  for (const b of section.querySelectorAll('button[data-view]')) {
    b.onclick = () => { view = b.dataset.view; show(); };
    b.hidden = b.dataset.view !== 'all' && !figures.some(f => f.dataset.view === b.dataset.view);
  }
  for (const b of section.querySelectorAll('button[data-zoom]')) b.onclick = () => { zoom = Number(b.dataset.zoom); show(); };
  window.addEventListener('load', show);
  window.addEventListener('resize', show);
}
