"""ptrnet.manifest against the scripts that run the demos: each controller (site/js/demos/<id>.js) declares exactly
the manifest's state fields in its exported SCHEMA, the registry mounts exactly the manifest's demos, and the embed
guide offers every demo with example attributes that are its fields."""

import re

from ptrnet import manifest

FIELDS = {demo.id: list(demo.fields) for demo in manifest.DEMOS}


def test_every_controller_declares_the_manifests_fields_and_the_registry_mounts_every_demo(page, site_url):
    page.goto(site_url + "embed-guide.html")  # any page of the site: the modules come from the test server's /source/
    declared = page.evaluate(
        """async (ids) => {
            const { CONTROLLERS } = await import('/source/js/demos/index.js');
            const declared = {};
            for (const id of ids) {
                const controller = await import(`/source/js/demos/${id}.js`);
                if (CONTROLLERS[id] !== controller) throw new Error(`the registry does not mount ${id}.js as ${id}`);
                declared[id] = Object.keys(controller.SCHEMA ?? {});
            }
            return { declared, registered: Object.keys(CONTROLLERS) };
        }""",
        list(FIELDS),
    )
    assert declared["declared"] == FIELDS
    assert declared["registered"] == list(FIELDS)


def test_the_embed_guide_offers_every_demo_with_its_own_fields_as_attributes(page, site_url):
    page.goto(site_url + "embed-guide.html")
    select = '[data-control="embed-demo"]'
    options = page.eval_on_selector_all(f"{select} option", "els => els.map(o => [o.value, o.textContent])")
    assert options == [[demo.id, demo.caption] for demo in manifest.DEMOS]
    for demo in manifest.DEMOS:
        page.select_option(select, demo.id)
        snippet = page.text_content('[data-snippet="script"]')
        attributes = re.findall(r'\s([\w-]+)="[^"]*"', snippet.split("<ptr-demo", 1)[1])
        listed = page.eval_on_selector_all("[data-attribute-list] dt", "els => els.map(e => e.textContent)")
        assert attributes[0] == "name" and set(attributes[1:]) == set(listed) <= set(demo.fields), demo.id
