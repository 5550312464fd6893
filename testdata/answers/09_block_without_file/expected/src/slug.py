import re


def slugify(title):
    """Returns title in lower case, with dashes between its words."""
    slug = title.lower()
    slug = re.sub(r"[^a-z0-9]+", "-", slug)
    return slug.strip("-")
