// The sandbox demo slot: spins on the provider's side, shows the balance it keeps.
(function () {
  var root = document.querySelector('main.game');
  if (!root) return;
  var token = root.getAttribute('data-token');
  // Where its state and spin calls go: /games/{CODE} on the sandbox service.
  var base = root.getAttribute('data-base');
  var balanceEl = root.querySelector('[data-testid="game-balance"]');
  var resultEl = root.querySelector('[data-testid="game-result"]');
  var reels = root.querySelectorAll('.reels span');
  var spinButton = root.querySelector('.spin');
  // Symbols every system font has (no emoji font needed: headless Chromium on Debian has none).
  var symbols = ['♣', '♦', '♠', '♥', '★', '7'];
  var colours = ['#1d3557', '#e63946', '#1d3557', '#e63946', '#f4a300', '#7b2cbf'];
  function paint(reel, index) {
    reel.textContent = symbols[index];
    reel.style.color = colours[index];
  }
  reels.forEach(function (reel, i) { paint(reel, [3, 4, 5][i] || 0); });
  // The first stake offered (in the player's currency) until another is chosen; kip shows no decimals.
  var firstBet = root.querySelector('[data-bet]');
  var bet = Number(firstBet.getAttribute('data-bet'));
  var decimals = balanceEl.getAttribute('data-currency') === 'LAK' ? 0 : 2;
  function show(balance) { balanceEl.textContent = balance.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals }); }
  root.querySelectorAll('[data-bet]').forEach(function (button) {
    button.addEventListener('click', function () {
      bet = Number(button.getAttribute('data-bet'));
      root.querySelectorAll('[data-bet]').forEach(function (b) { b.classList.toggle('active', b === button); });
    });
  });
  firstBet.classList.add('active');
  fetch(base + '/state?t=' + encodeURIComponent(token)).then(function (r) { return r.json(); }).then(function (s) { show(s.balance); });
  spinButton.addEventListener('click', function () {
    spinButton.disabled = true;
    var spins = 0;
    var timer = setInterval(function () {
      reels.forEach(function (reel) { paint(reel, Math.floor(Math.random() * symbols.length)); });
      if (++spins > 8) clearInterval(timer);
    }, 60);
    fetch(base + '/spin', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ t: token, bet: bet }) })
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
      .then(function (res) {
        setTimeout(function () {
          clearInterval(timer);
          spinButton.disabled = false;
          if (!res.ok) { resultEl.textContent = root.dataset.notEnough || 'Not enough balance'; return; }
          var win = res.body.multiplier > 0;
          if (win) reels.forEach(function (reel) { paint(reel, Math.min(5, Math.round(res.body.multiplier))); });
          resultEl.textContent = win ? (root.dataset.win || 'WIN') + ' ' + res.body.win.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals }) + ' (x' + res.body.multiplier + ')' : root.dataset.noWin || 'No win';
          resultEl.className = 'result ' + (win ? 'win' : 'lose');
          show(res.body.balance);
        }, 600);
      });
  });
})();
