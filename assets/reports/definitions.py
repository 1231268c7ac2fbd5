"""What people read: agreement with the people who labelled, and the review report."""

from dagster import Definitions, load_assets_from_modules

from assets.reports import agreement, review
from assets.shared.partitions import with_partitions_said

defs = Definitions(assets=with_partitions_said(load_assets_from_modules([agreement, review])))
