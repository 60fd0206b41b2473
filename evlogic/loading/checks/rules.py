# Generated from evlogic/schemas/rules.schema.json by fastjsonschema:
# python -m evlogic.loading.schema writes it again.  Do not edit.
# mypy: ignore-errors
# ruff: noqa
from decimal import Decimal
import re
class JsonSchemaValueException(ValueError):
    pass


JsonSchemaValuesException = JsonSchemaValueException


REGEX_PATTERNS = {
    '^[0-9]+$': re.compile('^[0-9]+\\Z')
}

NoneType = type(None)

def validate(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object")
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
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
        if "extends" in data_keys:
            data_keys.remove("extends")
            data__extends = data["extends"]
            if not isinstance(data__extends, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".extends must be string")
            if isinstance(data__extends, str):
                data__extends_len = len(data__extends)
                if data__extends_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".extends must be longer than or equal to 1 characters")
        if "tiers" in data_keys:
            data_keys.remove("tiers")
            data__tiers = data["tiers"]
            if not isinstance(data__tiers, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".tiers must be object")
            data__tiers_is_dict = isinstance(data__tiers, dict)
            if data__tiers_is_dict:
                data__tiers_len = len(data__tiers)
                if data__tiers_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".tiers must contain at least 1 properties")
                data__tiers_keys = set(data__tiers.keys())
                for data__tiers_key in data__tiers_keys:
                    if data__tiers_key not in []:
                        data__tiers_value = data__tiers.get(data__tiers_key)
                        if not isinstance(data__tiers_value, (int)) and not (isinstance(data__tiers_value, float) and data__tiers_value.is_integer()) or isinstance(data__tiers_value, bool):
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".tiers.{data__tiers_key}".format(**locals()) + " must be integer")
                        if isinstance(data__tiers_value, (int, float, Decimal)):
                            if data__tiers_value < 0:
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".tiers.{data__tiers_key}".format(**locals()) + " must be bigger than or equal to 0")
                            if data__tiers_value > 1000000:
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".tiers.{data__tiers_key}".format(**locals()) + " must be smaller than or equal to 1000000")
                if data__tiers_len != 0:
                    data__tiers_property_names = True
                    for data__tiers_key in data__tiers:
                        try:
                            if isinstance(data__tiers_key, str):
                                if not REGEX_PATTERNS['^[0-9]+$'].search(data__tiers_key):
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".tiers must match pattern ^[0-9]+$")
                        except (JsonSchemaValueException, JsonSchemaValuesException):
                            data__tiers_property_names = False
                    if not data__tiers_property_names:
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".tiers must be named by propertyName definition")
        if "siege_penalty" in data_keys:
            data_keys.remove("siege_penalty")
            data__siegepenalty = data["siege_penalty"]
            if not isinstance(data__siegepenalty, (int)) and not (isinstance(data__siegepenalty, float) and data__siegepenalty.is_integer()) or isinstance(data__siegepenalty, bool):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".siege_penalty must be integer")
            if isinstance(data__siegepenalty, (int, float, Decimal)):
                if data__siegepenalty < 0:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".siege_penalty must be bigger than or equal to 0")
                if data__siegepenalty > 1000000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".siege_penalty must be smaller than or equal to 1000000")
        if "links_needed" in data_keys:
            data_keys.remove("links_needed")
            data__linksneeded = data["links_needed"]
            if not isinstance(data__linksneeded, (int)) and not (isinstance(data__linksneeded, float) and data__linksneeded.is_integer()) or isinstance(data__linksneeded, bool):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".links_needed must be integer")
            if isinstance(data__linksneeded, (int, float, Decimal)):
                if data__linksneeded < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".links_needed must be bigger than or equal to 1")
                if data__linksneeded > 100:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".links_needed must be smaller than or equal to 100")
        if "swing_multiplier" in data_keys:
            data_keys.remove("swing_multiplier")
            data__swingmultiplier = data["swing_multiplier"]
            if not isinstance(data__swingmultiplier, (int)) and not (isinstance(data__swingmultiplier, float) and data__swingmultiplier.is_integer()) or isinstance(data__swingmultiplier, bool):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".swing_multiplier must be integer")
            if isinstance(data__swingmultiplier, (int, float, Decimal)):
                if data__swingmultiplier < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".swing_multiplier must be bigger than or equal to 1")
                if data__swingmultiplier > 100:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".swing_multiplier must be smaller than or equal to 100")
        if "home_swing" in data_keys:
            data_keys.remove("home_swing")
            data__homeswing = data["home_swing"]
            if not isinstance(data__homeswing, (bool)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".home_swing must be boolean")
        if "region" in data_keys:
            data_keys.remove("region")
            data__region = data["region"]
            if not (isinstance(data__region, str) and data__region == 'best-core' or isinstance(data__region, str) and data__region == 'union'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".region must be one of ['best-core', 'union']")
        if "game_end" in data_keys:
            data_keys.remove("game_end")
            data__gameend = data["game_end"]
            if not isinstance(data__gameend, (int)) and not (isinstance(data__gameend, float) and data__gameend.is_integer()) or isinstance(data__gameend, bool):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".game_end must be integer")
            if isinstance(data__gameend, (int, float, Decimal)):
                if data__gameend < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".game_end must be bigger than or equal to 1")
                if data__gameend > 1000000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".game_end must be smaller than or equal to 1000000")
        if "moves" in data_keys:
            data_keys.remove("moves")
            data__moves = data["moves"]
            if not isinstance(data__moves, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".moves must be string")
            if isinstance(data__moves, str):
                data__moves_len = len(data__moves)
                if data__moves_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".moves must be longer than or equal to 1 characters")
        if "market_size" in data_keys:
            data_keys.remove("market_size")
            data__marketsize = data["market_size"]
            if not isinstance(data__marketsize, (int)) and not (isinstance(data__marketsize, float) and data__marketsize.is_integer()) or isinstance(data__marketsize, bool):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".market_size must be integer")
            if isinstance(data__marketsize, (int, float, Decimal)):
                if data__marketsize < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".market_size must be bigger than or equal to 1")
                if data__marketsize > 1000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".market_size must be smaller than or equal to 1000")
        if "campaign_income" in data_keys:
            data_keys.remove("campaign_income")
            data__campaignincome = data["campaign_income"]
            if not isinstance(data__campaignincome, (int)) and not (isinstance(data__campaignincome, float) and data__campaignincome.is_integer()) or isinstance(data__campaignincome, bool):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".campaign_income must be integer")
            if isinstance(data__campaignincome, (int, float, Decimal)):
                if data__campaignincome < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".campaign_income must be bigger than or equal to 1")
                if data__campaignincome > 1000000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".campaign_income must be smaller than or equal to 1000000")
        if "programs" in data_keys:
            data_keys.remove("programs")
            data__programs = data["programs"]
            if not isinstance(data__programs, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".programs must be array")
            data__programs_is_list = isinstance(data__programs, (list, tuple))
            if data__programs_is_list:
                data__programs_len = len(data__programs)
                for data__programs_x, data__programs_item in enumerate(data__programs):
                    if not isinstance(data__programs_item, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".programs[{data__programs_x}]".format(**locals()) + " must be string")
                    if isinstance(data__programs_item, str):
                        data__programs_item_len = len(data__programs_item)
                        if data__programs_item_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".programs[{data__programs_x}]".format(**locals()) + " must be longer than or equal to 1 characters")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties")
    return data