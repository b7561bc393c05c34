// Sortable tables: a click on a column's header sorts the rows by that
// column (numbers by their data-sort value, text otherwise), again to
// reverse. The URL fragment's sort=COLUMN (and dir=desc) sorts at load.
(function () {
  'use strict';

  function sortBy(table, column, descending) {
    var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
    var key = function (row) {
      var cell = row.cells[column];
      var value = cell.getAttribute('data-sort');
      return value !== null && value !== '' && !isNaN(+value) ? +value : cell.textContent.trim().toLowerCase();
    };
    rows.sort(function (a, b) {
      var ka = key(a), kb = key(b);
      // Cells without a number ('-') go last either way.
      if (typeof ka !== typeof kb) return typeof ka === 'number' ? -1 : 1;
      var order = ka < kb ? -1 : ka > kb ? 1 : 0;
      return descending ? -order : order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, k) {
      th.setAttribute('aria-sort', k === column ? (descending ? 'descending' : 'ascending') : 'none');
    });
  }

  var tables = document.querySelectorAll('table.sortable');
  Array.prototype.forEach.call(tables, function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, column) {
      th.addEventListener('click', function () {
        sortBy(table, column, th.getAttribute('aria-sort') === 'ascending');
      });
    });
  });

  var params = {};
  location.hash.replace(/^#/, '').split('&').forEach(function (pair) {
    var kv = pair.split('=');
    if (kv.length === 2) params[kv[0]] = decodeURIComponent(kv[1]);
  });
  if (params.sort)
    Array.prototype.forEach.call(tables, function (table) {
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, column) {
        if (th.getAttribute('data-column') === params.sort) sortBy(table, column, params.dir === 'desc');
      });
    });
})();
