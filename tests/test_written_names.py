"""A symbol asked for as the code using it writes it: through the package that re-exports it
(`django.db.models.Model` for `django.db.models.base.Model`), or as a member its class inherits
(`JsonResponse.set_cookie`, defined in `HttpResponseBase`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from codecairn.errors import ToolError
from realcode import indexed, write_tree

pytestmark = pytest.mark.anyio

SHOP = {
    "shop/__init__.py": "from .base import Model\nfrom .fields import *\nfrom . import loops\n",
    "shop/base.py": """
        class Base:
            def save(self):
                return 1


        class Model(Base):
            pass
        """,
    "shop/fields.py": """
        __all__ = ["CharField"]


        class CharField:
            def clean(self, value):
                return value
        """,
    "shop/loops.py": "from shop.again import Ghost\n",
    "shop/again.py": "from shop.loops import Ghost\n",
    "app.py": """
        from shop import Model


        class Post(Model):
            def publish(self):
                return self.save()
        """,
}


@pytest.fixture
async def shop(tmp_path: Path, cache_dir: Path):
    root = write_tree(tmp_path / "proj", SHOP)
    async with indexed(root) as a:
        yield root, a


async def test_a_name_a_package_re_exports_is_its_definition_for_every_tool(shop) -> None:
    _, a = shop
    assert (await a.call("get_symbol", name="shop.Model"))["qualified_name"] == "shop.base.Model"
    # through `from .fields import *`, then to a member
    clean = await a.call("read_symbol", name="shop.CharField.clean")
    assert clean["qualified_name"] == "shop.fields.CharField.clean" and "return value" in clean["source"]
    below = await a.call("type_hierarchy", name="shop.Model", direction="descendants")
    assert [d["qualified_name"] for d in below["descendants"]] == ["app.Post"]
    traced = await a.call("trace", name="shop.Model.save")  # re-exported, then inherited
    assert [h["caller"] for h in traced["callers"]] == ["app.Post.publish"]
    with pytest.raises(ToolError) as nothing:
        await a.call("get_symbol", name="shop.Nope")
    assert nothing.value.code == "not_found"
    with pytest.raises(ToolError) as circular:  # two modules importing the name from each other
        await a.call("get_symbol", name="shop.loops.Ghost")
    assert circular.value.code == "not_found"


async def test_an_inherited_member_is_found_through_its_class_but_never_edited_through_it(shop) -> None:
    root, a = shop
    inherited = await a.call("get_symbol", name="Post.save")
    assert (inherited["qualified_name"], inherited["path"]) == ("shop.base.Base.save", "shop/base.py")
    assert (await a.call("get_symbol", name="app.Post.save"))["qualified_name"] == "shop.base.Base.save"
    with pytest.raises(ToolError) as refused:  # editing Base.save through Post would change every class
        await a.call("edit_symbol", name="Post.save", new_text="    def save(self):\n        return 2\n")
    assert refused.value.code == "not_found" and "nothing was changed" in refused.value.message
    assert "return 1" in (root / "shop" / "base.py").read_text()
    # a re-exported name is the symbol itself: edited where it is defined
    await a.call("edit_symbol", name="shop.Model", new_text="class Model(Base):\n    kind = 'model'\n")
    assert "kind = 'model'" in (root / "shop" / "base.py").read_text()


async def test_a_rust_type_s_trait_method_is_found_through_the_type(tmp_path: Path, cache_dir: Path) -> None:
    root = write_tree(tmp_path / "rs", {
        "src/lib.rs": """
            pub trait Shape {
                fn describe(&self) -> String { String::new() }
            }

            pub struct Point;

            impl Shape for Point {}

            impl Point {
                pub fn new() -> Self { Point }
            }
            """,
    })  # fmt: skip
    async with indexed(root) as a:
        described = await a.call("get_symbol", name="Point::describe")  # a trait's default method
        point = await a.call("get_symbol", name="Point")  # its impl block's methods are its members
        assert point["members"]["method"] == {"new": 10}
    assert described["qualified_name"] == "crate::Shape::describe"
