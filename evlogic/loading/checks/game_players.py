# Generated from evlogic/schemas/game.schema.json, its players by fastjsonschema:
# python -m evlogic.loading.schema writes it again.  Do not edit.
# mypy: ignore-errors
# ruff: noqa
class JsonSchemaValueException(ValueError):
    pass


JsonSchemaValuesException = JsonSchemaValueException


NoneType = type(None)

def validate(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (list, tuple)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be array")
    data_is_list = isinstance(data, (list, tuple))
    if data_is_list:
        data_len = len(data)
        if data_len < 1:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain at least 1 items")
        for data_x, data_item in enumerate(data):
            if not isinstance(data_item, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}]".format(**locals()) + " must be object")
            data_item_is_dict = isinstance(data_item, dict)
            if data_item_is_dict:
                data_item__missing_keys = set(['name', 'home']) - data_item.keys()
                if data_item__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}]".format(**locals()) + " must contain ")
                data_item_keys = set(data_item.keys())
                if "name" in data_item_keys:
                    data_item_keys.remove("name")
                    data_item__name = data_item["name"]
                    if not isinstance(data_item__name, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].name".format(**locals()) + " must be string")
                    if isinstance(data_item__name, str):
                        data_item__name_len = len(data_item__name)
                        if data_item__name_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].name".format(**locals()) + " must be longer than or equal to 1 characters")
                if "home" in data_item_keys:
                    data_item_keys.remove("home")
                    data_item__home = data_item["home"]
                    if not isinstance(data_item__home, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].home".format(**locals()) + " must be string")
                    if isinstance(data_item__home, str):
                        data_item__home_len = len(data_item__home)
                        if data_item__home_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].home".format(**locals()) + " must be longer than or equal to 1 characters")
                if "states" in data_item_keys:
                    data_item_keys.remove("states")
                    data_item__states = data_item["states"]
                    if not isinstance(data_item__states, (list, tuple)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].states".format(**locals()) + " must be array")
                    data_item__states_is_list = isinstance(data_item__states, (list, tuple))
                    if data_item__states_is_list:
                        def fn(var): return frozenset(dict((k, fn(v)) for k, v in var.items()).items()) if hasattr(var, "items") else tuple(fn(v) for v in var) if isinstance(var, (dict, list)) else str(var) if isinstance(var, bool) else var
                        data_item__states_len = len(data_item__states)
                        if data_item__states_len > len(set(fn(data_item__states_x) for data_item__states_x in data_item__states)):
                            raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].states".format(**locals()) + " must contain unique items")
                        for data_item__states_x, data_item__states_item in enumerate(data_item__states):
                            if not isinstance(data_item__states_item, (str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].states[{data_item__states_x}]".format(**locals()) + " must be string")
                            if isinstance(data_item__states_item, str):
                                data_item__states_item_len = len(data_item__states_item)
                                if data_item__states_item_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].states[{data_item__states_x}]".format(**locals()) + " must be longer than or equal to 1 characters")
                if data_item_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}]".format(**locals()) + " must not contain "+str(data_item_keys)+" properties")
    return data