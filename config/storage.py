"""Static files for production: fingerprinted names (`app.3f2a9c1b7e4d.js`) cached for a year, gzip and
Brotli copies beside them (WhiteNoise's CompressedManifestStaticFilesStorage), and the pages' ES modules
importing each other by their fingerprinted names too, so one changed module never runs beside a stale
cached neighbour.

Django rewrites `import … from "./x.js"` and `export … from "./x.js"` in JS files when
`support_js_module_import_aggregation` is on (off by default in Django); the pages use no dynamic
`import()`, which it would not rewrite.
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True

    def stored_name(self, name: str) -> str:
        """Without a manifest (``collectstatic`` has not run) a page names the file as it is rather than
        failing with a 500: the site still answers, unstyled until ``collectstatic`` fills STATIC_ROOT."""
        if not self.hashed_files:
            return name
        return str(super().stored_name(name))
