# Generated from evlogic/schemas/board.schema.json by fastjsonschema:
# python -m evlogic.loading.schema writes it again.  Do not edit.
# mypy: ignore-errors
# ruff: noqa
from decimal import Decimal
class JsonSchemaValueException(ValueError):
    pass


JsonSchemaValuesException = JsonSchemaValueException


NoneType = type(None)

def validate(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object")
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['states']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain ")
        data_keys = set(data.keys())
        if "name" in data_keys:
            data_keys.remove("name")
            data__name = data["name"]
            if not isinstance(data__name, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".name must be string")
            if isinstance(data__name, str):
                data__name_len = len(data__name)
                if data__name_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".name must be longer than or equal to 1 characters")
        if "game_end" in data_keys:
            data_keys.remove("game_end")
            data__gameend = data["game_end"]
            if not isinstance(data__gameend, (int)) and not (isinstance(data__gameend, float) and data__gameend.is_integer()) or isinstance(data__gameend, bool):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".game_end must be integer")
            if isinstance(data__gameend, (int, float, Decimal)):
                if data__gameend < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".game_end must be bigger than or equal to 1")
        if "states" in data_keys:
            data_keys.remove("states")
            data__states = data["states"]
            if not isinstance(data__states, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".states must be object")
            data__states_is_dict = isinstance(data__states, dict)
            if data__states_is_dict:
                data__states_len = len(data__states)
                if data__states_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".states must contain at least 1 properties")
                if data__states_len > 50000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".states must contain less than or equal to 50000 properties")
                data__states_keys = set(data__states.keys())
                for data__states_key in data__states_keys:
                    if data__states_key not in []:
                        data__states_value = data__states.get(data__states_key)
                        if not isinstance(data__states_value, (dict)):
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".states.{data__states_key}".format(**locals()) + " must be object")
                        data__states_value_is_dict = isinstance(data__states_value, dict)
                        if data__states_value_is_dict:
                            data__states_value__missing_keys = set(['ev']) - data__states_value.keys()
                            if data__states_value__missing_keys:
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".states.{data__states_key}".format(**locals()) + " must contain ")
                            data__states_value_keys = set(data__states_value.keys())
                            if "name" in data__states_value_keys:
                                data__states_value_keys.remove("name")
                                data__states_value__name = data__states_value["name"]
                                if not isinstance(data__states_value__name, (str)):
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".states.{data__states_key}.name".format(**locals()) + " must be string")
                                if isinstance(data__states_value__name, str):
                                    data__states_value__name_len = len(data__states_value__name)
                                    if data__states_value__name_len < 1:
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".states.{data__states_key}.name".format(**locals()) + " must be longer than or equal to 1 characters")
                            if "ev" in data__states_value_keys:
                                data__states_value_keys.remove("ev")
                                data__states_value__ev = data__states_value["ev"]
                                if not isinstance(data__states_value__ev, (int)) and not (isinstance(data__states_value__ev, float) and data__states_value__ev.is_integer()) or isinstance(data__states_value__ev, bool):
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".states.{data__states_key}.ev".format(**locals()) + " must be integer")
                                if isinstance(data__states_value__ev, (int, float, Decimal)):
                                    if data__states_value__ev < 1:
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".states.{data__states_key}.ev".format(**locals()) + " must be bigger than or equal to 1")
                                    if data__states_value__ev > 10000000:
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".states.{data__states_key}.ev".format(**locals()) + " must be smaller than or equal to 10000000")
                            if "swing" in data__states_value_keys:
                                data__states_value_keys.remove("swing")
                                data__states_value__swing = data__states_value["swing"]
                                if not isinstance(data__states_value__swing, (bool)):
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".states.{data__states_key}.swing".format(**locals()) + " must be boolean")
                            if "neighbors" in data__states_value_keys:
                                data__states_value_keys.remove("neighbors")
                                data__states_value__neighbors = data__states_value["neighbors"]
                                if not isinstance(data__states_value__neighbors, (list, tuple)):
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".states.{data__states_key}.neighbors".format(**locals()) + " must be array")
                                data__states_value__neighbors_is_list = isinstance(data__states_value__neighbors, (list, tuple))
                                if data__states_value__neighbors_is_list:
                                    def fn(var): return frozenset(dict((k, fn(v)) for k, v in var.items()).items()) if hasattr(var, "items") else tuple(fn(v) for v in var) if isinstance(var, (dict, list)) else str(var) if isinstance(var, bool) else var
                                    data__states_value__neighbors_len = len(data__states_value__neighbors)
                                    if data__states_value__neighbors_len > len(set(fn(data__states_value__neighbors_x) for data__states_value__neighbors_x in data__states_value__neighbors)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".states.{data__states_key}.neighbors".format(**locals()) + " must contain unique items")
                                    for data__states_value__neighbors_x, data__states_value__neighbors_item in enumerate(data__states_value__neighbors):
                                        if not isinstance(data__states_value__neighbors_item, (str)):
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".states.{data__states_key}.neighbors[{data__states_value__neighbors_x}]".format(**locals()) + " must be string")
                                        if isinstance(data__states_value__neighbors_item, str):
                                            data__states_value__neighbors_item_len = len(data__states_value__neighbors_item)
                                            if data__states_value__neighbors_item_len < 1:
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".states.{data__states_key}.neighbors[{data__states_value__neighbors_x}]".format(**locals()) + " must be longer than or equal to 1 characters")
                            if "hex" in data__states_value_keys:
                                data__states_value_keys.remove("hex")
                                data__states_value__hex = data__states_value["hex"]
                                if not isinstance(data__states_value__hex, (list, tuple)):
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".states.{data__states_key}.hex".format(**locals()) + " must be array")
                                data__states_value__hex_is_list = isinstance(data__states_value__hex, (list, tuple))
                                if data__states_value__hex_is_list:
                                    data__states_value__hex_len = len(data__states_value__hex)
                                    if data__states_value__hex_len < 2:
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".states.{data__states_key}.hex".format(**locals()) + " must contain at least 2 items")
                                    if data__states_value__hex_len > 2:
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".states.{data__states_key}.hex".format(**locals()) + " must contain less than or equal to 2 items")
                                    for data__states_value__hex_x, data__states_value__hex_item in enumerate(data__states_value__hex):
                                        if not isinstance(data__states_value__hex_item, (int)) and not (isinstance(data__states_value__hex_item, float) and data__states_value__hex_item.is_integer()) or isinstance(data__states_value__hex_item, bool):
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".states.{data__states_key}.hex[{data__states_value__hex_x}]".format(**locals()) + " must be integer")
                                        if isinstance(data__states_value__hex_item, (int, float, Decimal)):
                                            if data__states_value__hex_item < -10000:
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".states.{data__states_key}.hex[{data__states_value__hex_x}]".format(**locals()) + " must be bigger than or equal to -10000")
                                            if data__states_value__hex_item > 10000:
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".states.{data__states_key}.hex[{data__states_value__hex_x}]".format(**locals()) + " must be smaller than or equal to 10000")
                            if data__states_value_keys:
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".states.{data__states_key}".format(**locals()) + " must not contain "+str(data__states_value_keys)+" properties")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties")
    return data