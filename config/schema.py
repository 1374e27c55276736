from drf_spectacular.openapi import AutoSchema as _Base


class AutoSchema(_Base):
    pass
