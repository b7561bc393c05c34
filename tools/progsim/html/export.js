// "Download SVG" under each figure: the figure's <svg> as a standalone file.
(function () {
  'use strict';
  document.querySelectorAll('button[data-export]').forEach(function (button) {
    button.addEventListener('click', function () {
      var figure = document.getElementById(button.getAttribute('data-export'));
      var text = '<?xml version="1.0" encoding="UTF-8"?>\n' + figure.querySelector('svg').outerHTML + '\n';
      var link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
      link.download = button.getAttribute('data-file');
      document.body.appendChild(link);
      link.click();
      link.remove();
    });
  });
})();
