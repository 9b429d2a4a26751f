"""The family registry lives in `queens.models.families`; this name stays while the web
explorer still imports it from here."""

from queens.models.families import FAMILIES, Family, FamilyOptions, Target, build, catalogue, reason_for_none

__all__ = ["FAMILIES", "Family", "FamilyOptions", "Target", "build", "catalogue", "reason_for_none"]
