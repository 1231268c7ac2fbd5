"""What people read: agreement with the people who labelled, and the review report."""

from dagster import Definitions, load_assets_from_modules

from assets.reports import agreement, review

defs = Definitions(assets=load_assets_from_modules([agreement, review]))
