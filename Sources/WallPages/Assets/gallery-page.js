document.querySelector('input').addEventListener('input', event => {
  const text = event.target.value.trim().toLowerCase();
  document.body.classList.toggle('filtering', text !== '');
  for (const link of document.querySelectorAll('.wall a')) {
    link.classList.toggle('match', text !== '' && link.dataset.name.toLowerCase().includes(text));
  }
});
