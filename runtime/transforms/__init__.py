"""Named transforms: the structural regroupings a YAML row cannot express.

Rows reference them by name (``transforms:`` in spec/protocols/*.yaml), and spec/canonical.yaml
``transforms`` says where each lives (``module.OBJECT`` here, checked by codegen) or that it is
the codec's own compiled functions. Each codec's compiled pipeline imports the objects it names
and calls them; nothing looks them up at run time. Each object declares the top-level wire keys
it consumes that no row says (so everything else can ride in ``ext``; those of the compiled code
it calls are the codec's rows'). Each is tested on its own in tests/test_transforms.py.
"""
